package dev.polystack.platform.module;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.OptionalSlug;
import dev.polystack.platform.common.web.Slug;
import dev.polystack.rules.Identifiers;
import jakarta.validation.constraints.Pattern;

/** A module rule: the module, and the criteria a resource must meet (each optional). */
public record CreateModuleRuleRequest(
        @Slug String moduleId,

        @Pattern(regexp = Identifiers.NAME, message = "must be a lowercase resource class")
        String resourceClass,

        @Pattern(regexp = Identifiers.RESOURCE_ID, message = "must be a resource id such as checkout.db")
        String resourceId,

        @OptionalSlug String projectId,
        @OptionalSlug String envTypeId,
        @OptionalSlug String envId,
        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect) {}
