package dev.polystack.platform.fuzz;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** An operation of the OpenAPI document: its method, path, parameters, media types and request schema. */
record Operation(String method, String path, String id, List<String> query, List<String> mediaTypes, JsonNode schema) {}
