package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

public record UpdateServiceUserRequest(
        @NotNull Role role, @Size(max = 1000) String description, Long version) {}
