package dev.polystack.platform.resourcetype;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

public record ResourceTypeView(
        String id,
        String description,
        JsonNode outputSchema,
        boolean developerAccessible,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        ReconcilePolicy reconcile,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    static ResourceTypeView of(ResourceType type) {
        return new ResourceTypeView(
                type.slug(),
                type.description(),
                type.outputSchema(),
                type.developerAccessible(),
                type.management().managedBy(),
                type.management().isProtected(),
                type.reconcile(),
                type.createdAt(),
                type.updatedAt(),
                type.version());
    }
}
