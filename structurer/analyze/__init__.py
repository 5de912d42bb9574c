"""Pure analysis over lxml trees: repeated lists, fields, pagination, page kinds, XPaths.

Nothing in this package does I/O: it takes parsed trees and a lexicon and returns
typed results. ``structurer.learn.explore`` feeds it pages and assembles rule files.
"""
