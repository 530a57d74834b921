package dev.polystack.platform.deployment;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.UUID;

/**
 * @param manifestVersion plan, deploy, dry-run: the manifest version to use; default the latest
 * @param rollbackTo      rollback: the earlier deployment whose graph (module versions and inputs) to deploy again
 * @param force           run every resource, even those whose inputs did not change
 */
public record CreateDeploymentRequest(
        @NotNull @Schema(enumeration = {"dry-run", "plan", "deploy", "destroy", "rollback"}) DeploymentMode mode,
        @Min(1) Integer manifestVersion,
        UUID rollbackTo,
        Boolean force) {
}
