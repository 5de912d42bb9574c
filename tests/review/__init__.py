"""Tests of the visual review report."""
