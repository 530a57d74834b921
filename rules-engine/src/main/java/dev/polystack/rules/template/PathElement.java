package dev.polystack.rules.template;

/** One step of a reference path: a field name or a list index. */
public sealed interface PathElement {

    /** A field: printed {@code .name} when it is an identifier, {@code ["name"]} otherwise. */
    record Field(String name) implements PathElement {
        public Field {
            if (name == null) {
                throw new IllegalArgumentException("a field needs a name");
            }
        }
    }

    /** A list index, zero-based. */
    record Index(int index) implements PathElement {
        public Index {
            if (index < 0) {
                throw new IllegalArgumentException("an index is not negative");
            }
        }
    }
}
