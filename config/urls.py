from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from league import views
from league.api import views as api_views
from league.api.problems import api_not_found

router = DefaultRouter()
router.register("clubs", api_views.ClubViewSet, basename="club")
router.register("memberships", api_views.MembershipViewSet, basename="membership")
router.register("players", api_views.PlayerViewSet, basename="player")
router.register("leagues", api_views.LeagueViewSet, basename="league")
router.register("events", api_views.EventViewSet, basename="event")
router.register("rounds", api_views.RoundViewSet, basename="round")
router.register("tables", api_views.TableViewSet, basename="table")

urlpatterns = [
    path("", include("league.web.pages")),
    path("", include("league.web.entry")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include(router.urls)),
    # Unknown API URLs answer problem+json even with DEBUG on.
    re_path(r"^api/", csrf_exempt(api_not_found)),
]

handler404 = "league.views.not_found"
handler500 = "league.views.server_error"
