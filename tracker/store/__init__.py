"""What the tracker keeps on disk: saves and their journal, the user's folders, settings and
keymap, the library of stat blocks, reports, and new encounters prepared from them."""
