package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A provider as one node uses it: the module's local name for it, and the configuration (templates). */
public record ProviderBinding(String localName, ProviderSpec provider) {

    public ObjectNode configuration() {
        return provider.configuration();
    }
}
