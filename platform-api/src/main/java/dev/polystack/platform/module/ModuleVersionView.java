package dev.polystack.platform.module;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Map;

/** One immutable version of a module. */
public record ModuleVersionView(
        String moduleId,
        String resourceType,
        int version,
        String moduleSource,
        String moduleSourceCode,
        JsonNode moduleParams,
        JsonNode moduleInputs,
        JsonNode providerMapping,
        JsonNode dependencies,
        Map<String, String> secretInputs,
        ModuleInterfaceView moduleInterface,
        Instant createdAt) {}
