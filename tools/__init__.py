"""Scripts that keep the repository in order (run from its root: ``python -m tools.<name>``)."""
