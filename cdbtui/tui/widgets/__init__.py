"""The widgets of the live sheet: the grid (Line API), the side panel and the log."""
