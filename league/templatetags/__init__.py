"""The league's template tags."""
