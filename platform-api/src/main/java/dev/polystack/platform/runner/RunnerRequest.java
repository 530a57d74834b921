package dev.polystack.platform.runner;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.OptionalSlug;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/** Registers a runner (POST; {@code id} required) or replaces its definition (PUT). */
public record RunnerRequest(
        @OptionalSlug String id,
        @Size(max = 1000) String description,

        @NotBlank @Size(max = 2000) @Schema(description = "Ed25519 public key in PEM")
        String publicKey,

        Map<
                        @Pattern(regexp = "^[a-zA-Z0-9._/-]{1,63}$", message = "must be a label key") String,
                        @NotNull @Size(max = 200) String>
                labels,

        @Min(1) @Max(1000) @Schema(description = "Jobs it may run at once; default 1")
        Integer maxConcurrentJobs,

        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        Long version) {}
