package dev.polystack.platform.provider;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.Map;

public record ProviderView(
        String providerType,
        String id,
        String source,
        String versionConstraint,
        JsonNode configuration,

        @Schema(description = "Secret configuration values, always shown as ***")
        Map<String, String> secrets,

        String managedBy,
        @JsonProperty("protected") boolean protect,
        Instant createdAt,
        Instant updatedAt,
        long version) {}
