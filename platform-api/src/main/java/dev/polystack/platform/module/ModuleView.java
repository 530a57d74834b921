package dev.polystack.platform.module;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.Map;

/** A module as of its latest version; {@code version} is that version's number and the ETag. */
public record ModuleView(
        String id,
        String resourceType,
        int version,
        String moduleSource,
        String moduleSourceCode,
        JsonNode moduleParams,
        JsonNode moduleInputs,
        JsonNode providerMapping,
        JsonNode dependencies,

        @Schema(description = "Secret inputs, always shown as ***")
        Map<String, String> secretInputs,

        ModuleInterfaceView moduleInterface,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        Instant createdAt,
        Instant updatedAt) {}
