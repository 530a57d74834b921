package dev.polystack.rules.template;

/** A piece of a template: literal text or a placeholder. */
public sealed interface Segment {

    /** Literal text; a {@code ${} in it is printed as {@code $${}. */
    record Literal(String text) implements Segment {}

    /** A placeholder and the offset of its {@code $} in the original string. */
    record Placeholder(Reference reference, int position) implements Segment {}
}
