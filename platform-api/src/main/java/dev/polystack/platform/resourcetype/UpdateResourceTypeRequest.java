package dev.polystack.platform.resourcetype;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.Size;

public record UpdateResourceTypeRequest(@Size(max = 1000) String description, JsonNode outputSchema,
                                        Boolean developerAccessible, Long version) {
}
