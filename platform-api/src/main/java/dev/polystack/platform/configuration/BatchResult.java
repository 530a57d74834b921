package dev.polystack.platform.configuration;

import com.fasterxml.jackson.databind.JsonNode;

/** What one change of a batch answered: the status its own call would have, and the object (none for a delete). */
public record BatchResult(int status, JsonNode body) {}
