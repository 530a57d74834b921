package dev.polystack.platform.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class ApprovalRepository implements PanacheRepositoryBase<Approval, UUID> {

    /** The decisions on a deployment, oldest first. */
    public List<Approval> of(UUID deploymentId) {
        return find("deploymentId = ?1 order by createdAt, id", deploymentId).list();
    }
}
