package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * A node's resolved inputs and provider configurations (without provider secrets, which are added
 * only to a claimed job's payload). Stored sealed: inputs may carry other resources' sensitive outputs.
 */
public record ResolvedNode(
        ObjectNode inputs,
        List<String> sensitiveInputs,
        Map<String, ObjectNode> providers,
        List<String> sensitiveProviderFields) {}
