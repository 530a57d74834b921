package dev.polystack.platform.fuzz;

/** A number (or not quite a number) written exactly as given. */
record Raw(String text) {}
