package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Set;

/**
 * How a job ended, as the engine records it.
 *
 * @param status      succeeded, failed or cancelled
 * @param outputs     output values by name (applies)
 * @param resources   the OpenTofu resources in the state after the job
 * @param planSummary {@code {add, change, destroy}}
 * @param checkReport what a check found (checks only)
 */
public record JobOutcome(
        NodeStatus status,
        String error,
        ObjectNode outputs,
        Set<String> sensitiveOutputs,
        JsonNode resources,
        JsonNode planSummary,
        JsonNode checkReport) {}
