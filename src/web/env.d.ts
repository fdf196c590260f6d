// The console runs in browsers: its files see the DOM's types (the rest of src/ does not use them).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
