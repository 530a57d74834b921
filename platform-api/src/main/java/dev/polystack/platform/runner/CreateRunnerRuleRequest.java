package dev.polystack.platform.runner;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.OptionalSlug;
import dev.polystack.platform.common.web.Slug;
import dev.polystack.rules.Identifiers;
import jakarta.validation.constraints.Pattern;

/** A runner rule: the runner, and the criteria a resource must meet (each optional). */
public record CreateRunnerRuleRequest(
        @Slug String runnerId,
        @OptionalSlug String projectId,
        @OptionalSlug String envTypeId,
        @OptionalSlug String envId,
        @OptionalSlug String resourceType,

        @Pattern(regexp = Identifiers.NAME, message = "must be a lowercase resource class")
        String resourceClass,

        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect) {}
