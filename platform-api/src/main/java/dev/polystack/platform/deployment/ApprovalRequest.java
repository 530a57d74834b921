package dev.polystack.platform.deployment;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * @param decision    approve or reject
 * @param comment     why; kept with the decision and shown with the deployment
 * @param fingerprint the plan the caller reviewed (the deployment's {@code approval.fingerprint}); when given, a
 *                    decision on any other plan is refused with 409
 */
@Schema(name = "ApprovalRequest")
public record ApprovalRequest(
        @NotNull
        @Pattern(regexp = "approve|reject", message = "must be approve or reject")
        @Schema(enumeration = {"approve", "reject"})
        String decision,

        @Size(max = 2000) String comment,
        @Size(max = 100) String fingerprint) {}
