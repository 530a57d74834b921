package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;
import jakarta.validation.constraints.NotNull;

public record UpdateMemberRequest(@NotNull Role role, Long version) {}
