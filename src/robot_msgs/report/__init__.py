"""Run reports: read runs, compute what they did beyond accuracy, rank, export."""
