package dev.polystack.platform.configuration;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One change of a batch: the call it stands for, relative to the organization, and that call's body. */
public record BatchChange(
        @NotBlank @Pattern(regexp = "^(POST|PUT|PATCH|DELETE)$", message = "must be POST, PUT, PATCH or DELETE")
        String method,

        @NotBlank
        @Size(max = 300)
        @Schema(description = "Relative to /api/v1/orgs/{org}, e.g. /env-types or /modules/rds")
        String path,

        @Schema(description = "The body that call takes") JsonNode body) {}
