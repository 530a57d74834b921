package dev.polystack.platform.module;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.web.Slug;
import dev.polystack.rules.Identifiers;
import jakarta.validation.constraints.Pattern;

import java.util.Map;

/**
 * Another resource this module needs, provisioned before it; its outputs are reachable as
 * {@code ${resources.<alias>.outputs...}} in module inputs and provider configuration.
 *
 * @param type          resource type
 * @param resourceClass resource class, default {@code default}
 * @param id            resource id; default: a resource private to the dependent one
 * @param params        params for the dependency's module
 */
public record ModuleDependency(
        @Slug String type,

        @JsonProperty("class") @Pattern(regexp = Identifiers.NAME, message = "must be a lowercase name")
        String resourceClass,

        @Pattern(regexp = Identifiers.RESOURCE_ID, message = "must be a resource id such as shared.vpc")
        String id,

        Map<String, JsonNode> params) {}
