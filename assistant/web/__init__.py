"""What every game page shares: the table a page is kept with, reading its state safely, saving."""
