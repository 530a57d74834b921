package dev.polystack.rules;

import java.util.Comparator;
import java.util.Objects;

/** A resource's identity in an environment: equal identities are one resource. */
public record ResourceIdentity(String type, String resourceClass, String id) implements Comparable<ResourceIdentity> {

    public static final String DEFAULT_CLASS = "default";

    private static final Comparator<ResourceIdentity> ORDER = Comparator.comparing(ResourceIdentity::id)
            .thenComparing(ResourceIdentity::type)
            .thenComparing(ResourceIdentity::resourceClass);

    public ResourceIdentity {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(resourceClass, "resourceClass");
        Objects.requireNonNull(id, "id");
    }

    @Override
    public int compareTo(ResourceIdentity other) {
        return ORDER.compare(this, other);
    }

    /** {@code postgres/default/checkout.db}. */
    @Override
    public String toString() {
        return type + "/" + resourceClass + "/" + id;
    }
}
