package dev.polystack.platform.provider;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.OptionalSlug;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/**
 * Creates a provider (POST) or replaces its definition (PUT; {@code provider_type} and {@code id}
 * may then be left out, and must match the path when given).
 */
public record ProviderRequest(
        @OptionalSlug String providerType,
        @OptionalSlug String id,

        @NotBlank
        @Size(max = 300)
        @Pattern(
                regexp = "^([a-zA-Z0-9.-]+/)?[a-zA-Z0-9-]+/[a-zA-Z0-9_-]+$",
                message =
                        "must be a provider source address such as hashicorp/aws or registry.opentofu.org/hashicorp/aws")
        String source,

        @Size(max = 100) String versionConstraint,

        @Schema(description = "Provider configuration; values may contain placeholders")
        JsonNode configuration,

        @Schema(description = "Write-only configuration values, stored encrypted; send *** to keep a value as it is")
        Map<
                        @Pattern(regexp = "^[a-zA-Z_][a-zA-Z0-9_]*$", message = "must be a provider argument name")
                        String,
                        @NotNull @Size(max = 65536) String>
                secrets,

        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        Long version) {

    /** Marker that keeps a secret value unchanged on update. */
    public static final String KEEP = "***";
}
