from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from league import health
from league.api import viewsets, webhook_viewsets
from league.api.problems import api_not_found

router = DefaultRouter()
router.register("clubs", viewsets.ClubViewSet, basename="club")
router.register("memberships", viewsets.MembershipViewSet, basename="membership")
router.register("players", viewsets.PlayerViewSet, basename="player")
router.register("leagues", viewsets.LeagueViewSet, basename="league")
router.register("events", viewsets.EventViewSet, basename="event")
router.register("rounds", viewsets.RoundViewSet, basename="round")
router.register("tables", viewsets.TableViewSet, basename="table")
router.register("webhooks", webhook_viewsets.WebhookEndpointViewSet, basename="webhook")

urlpatterns = [
    # The API first: no page's URL starts with api/, and a request is matched
    # against each pattern in turn (the pages' two hundred, when they came
    # first, added about 18 us to every API request).
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves the page's script from a URL of its own, and our
    # template its style from a static file: no inline script or style (CSP).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="schema", template_name="league/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("api/", include(router.urls)),
    # Unknown API URLs answer problem+json even with DEBUG on.
    re_path(r"^api/", csrf_exempt(api_not_found)),
    path("", include("league.web.urls")),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]

handler400 = "league.error_pages.bad_request"
handler404 = "league.error_pages.not_found"
handler500 = "league.error_pages.server_error"
