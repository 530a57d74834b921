package dev.polystack.platform.resource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ResourceIdentity;

import java.util.List;
import java.util.UUID;

/**
 * What a succeeded node leaves behind as an active resource.
 *
 * @param resolved         the resolved inputs, in clear (sealed when stored)
 * @param outputs          output values by name (sealed when stored)
 * @param sensitiveOutputs array of the names of sensitive outputs
 * @param dependencies     what this resource depends on, with the aliases
 */
public record Provisioned(
        UUID environmentId,
        ResourceIdentity identity,
        UUID moduleId,
        String moduleSlug,
        int moduleVersion,
        UUID runnerId,
        JsonNode spec,
        Fingerprint fingerprint,
        byte[] resolved,
        ObjectNode outputs,
        JsonNode sensitiveOutputs,
        JsonNode tofuResources,
        List<ResourceDependency> dependencies,
        UUID deploymentId) {}
