package dev.polystack.platform.resourcetype;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.Slug;
import jakarta.validation.constraints.Size;

/**
 * @param outputSchema        JSON Schema of the outputs every module of this type must report; defaults to any object
 * @param developerAccessible whether developers may ask for it in manifests (otherwise only as a module dependency); default true
 * @param reconcile           what happens to drift a check finds: observe (default), approve or auto
 */
public record CreateResourceTypeRequest(
        @Slug String id,
        @Size(max = 1000) String description,
        JsonNode outputSchema,
        Boolean developerAccessible,
        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        ReconcilePolicy reconcile) {}
