package dev.polystack.platform.resourcetype;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.web.ManagedBy;
import jakarta.validation.constraints.Size;

/** @param reconcile what happens to drift a check finds; absent leaves it as it is */
public record UpdateResourceTypeRequest(
        @Size(max = 1000) String description,
        JsonNode outputSchema,
        Boolean developerAccessible,
        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        Long version,
        ReconcilePolicy reconcile) {}
