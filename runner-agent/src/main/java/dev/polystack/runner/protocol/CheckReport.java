package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * What a check found: the plan of a resource's last applied configuration against the world.
 *
 * @param drifted            whether something changed outside OpenTofu ({@code resource_drift} not empty)
 * @param changesPending     whether applying the configuration again would change anything
 * @param drift              what changed outside, per OpenTofu resource, with sensitive values masked
 * @param changes            what an apply would do, per OpenTofu resource, with OpenTofu's reason
 * @param relevantAttributes the attributes that contributed to the plan's changes
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CheckReport(
        boolean drifted,
        boolean changesPending,
        List<ResourceDrift> drift,
        List<ResourceChange> changes,
        List<Attribute> relevantAttributes) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourceDrift(String address, List<String> actions, List<AttributeChange> attributes) {}

    /** One changed attribute: its path ({@code tags.env}, {@code rules[0].port}) and its values, or {@code "(sensitive)"}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AttributeChange(String path, JsonNode before, JsonNode after) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourceChange(String address, List<String> actions, String actionReason) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Attribute(String resource, String path) {}
}
