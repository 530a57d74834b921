package dev.polystack.platform.common;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Changes who manages an immutable object (a rule) and whether it is protected; an absent field keeps its value. */
public record ManagementRequest(
        @ManagedBy @Schema(description = "What manages the object (configuration as code); empty clears it")
        String managedBy,

        @JsonProperty("protected") @Schema(description = "A protected object refuses every delete")
        Boolean protect) {}
