"""Tables (games in progress): the versioned store, its JSON API and the table pages."""
