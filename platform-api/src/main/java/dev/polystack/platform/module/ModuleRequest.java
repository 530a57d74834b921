package dev.polystack.platform.module;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.OptionalSlug;
import dev.polystack.rules.Identifiers;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/**
 * Creates a module (POST; {@code id} and {@code resource_type} required) or makes its next version
 * (PUT; {@code id} and {@code resource_type} may be left out and cannot change).
 */
public record ModuleRequest(
        @OptionalSlug String id,
        @OptionalSlug String resourceType,

        @NotBlank
        @Size(max = 1000)
        @Pattern(regexp = "^\\S+$", message = "must be `inline` or a module source address without spaces")
        @Schema(description = "`inline`, or a git or registry module source address")
        String moduleSource,

        @Size(max = 524288) @Schema(description = "The module's code (HCL or JSON) when module_source is `inline`")
        String moduleSourceCode,

        Map<
                        @Pattern(regexp = Identifiers.VARIABLE, message = "must be a variable name") String,
                        @NotNull @Valid ModuleParam>
                moduleParams,

        @Schema(description = "OpenTofu variables of the module; string values may contain placeholders")
        Map<@Pattern(regexp = Identifiers.VARIABLE, message = "must be a variable name") String, JsonNode> moduleInputs,

        @Schema(description = "OpenTofu provider local name → Polystack provider `type.id`")
        Map<
                        @Pattern(regexp = "^[a-z][a-z0-9_-]*$", message = "must be a provider local name") String,
                        @NotNull
                        @Pattern(regexp = "^[a-z0-9-]+\\.[a-z0-9-]+$", message = "must name a provider as type.id")
                        String>
                providerMapping,

        Map<
                        @Pattern(regexp = Identifiers.NAME, message = "must be a lowercase alias") String,
                        @NotNull @Valid ModuleDependency>
                dependencies,

        @Schema(
                description =
                        "Write-only module inputs (passwords, keys), stored encrypted; send *** to keep a value as it is")
        Map<
                        @Pattern(regexp = Identifiers.VARIABLE, message = "must be a variable name") String,
                        @NotNull @Size(max = 65536) String>
                secretInputs,

        @ManagedBy @Schema(description = "What manages the module (configuration as code); empty clears it")
        String managedBy,

        @JsonProperty("protected") @Schema(description = "A protected module refuses every delete")
        Boolean protect,

        @Schema(description = "On update: the version you are changing (optimistic locking)")
        Long version) {}
