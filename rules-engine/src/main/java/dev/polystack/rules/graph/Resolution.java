package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.Set;

/**
 * A node's inputs and provider configurations with every placeholder replaced.
 *
 * @param inputs                  module inputs and params, by variable name
 * @param sensitiveInputs         inputs that carry a sensitive output of another resource
 * @param providerConfigurations  by provider local name
 * @param sensitiveProviderFields {@code <local name>.<field>} of provider configuration that carry sensitive outputs
 * @param unknown                 inputs ({@code name}) and provider fields ({@code local.field}) whose references
 *                                could not be resolved yet (only in lenient resolution); their values keep the template text
 */
public record Resolution(
        ObjectNode inputs,
        Set<String> sensitiveInputs,
        Map<String, ObjectNode> providerConfigurations,
        Set<String> sensitiveProviderFields,
        Set<String> unknown) {

    public Resolution {
        inputs = inputs.deepCopy();
        sensitiveInputs = Set.copyOf(sensitiveInputs);
        providerConfigurations = Map.copyOf(providerConfigurations);
        sensitiveProviderFields = Set.copyOf(sensitiveProviderFields);
        unknown = Set.copyOf(unknown);
    }

    public boolean isComplete() {
        return unknown.isEmpty();
    }
}
