"""Screens and dialogs: the fight, the maneuver picker, forms, help and the start screen."""
