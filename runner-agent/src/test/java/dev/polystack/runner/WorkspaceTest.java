package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.runner.protocol.ClaimedJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WorkspaceTest {

    @TempDir
    Path root;

    static ClaimedJob job(String operation, String code) throws Exception {
        return ControlPlane.JSON.readValue(
                """
                {"job_id":"6f1c2b1e-0000-4000-8000-000000000001","deployment_id":"6f1c2b1e-0000-4000-8000-000000000002",
                 "attempt":1,"operation":"%s","resource":{"type":"postgres","class":"default","id":"app.db"},
                 "environment":{"org":"acme","project":"shop","env":"prod","env_type":"production"},
                 "module":{"id":"rds","version":3,"source":"inline","code":%s},
                 "inputs":{"name":"prod-app.db","password":"s3cret","size":2},"sensitive_inputs":["password"],
                 "providers":[{"name":"aws","source":"hashicorp/aws","version_constraint":"~> 5.0",
                               "configuration":{"region":"eu-west-1","secret_key":"provider-secret"}}],
                 "outputs":["host","port"],
                 "state":{"address":"http://cp/api/state/v1/e/postgres/default/app.db","lock_address":"http://cp/l",
                          "unlock_address":"http://cp/u","username":"job","password":"job-token"},
                 "lease_seconds":60,"heartbeat_seconds":15}""".formatted(operation, ControlPlane.JSON.writeValueAsString(code)), ClaimedJob.class);
    }

    @Test
    void writesTheRootModuleTheIssueDescribes() throws Exception {
        Workspace workspace = Workspace.create(root, job("apply", "variable \"name\" {}"));
        JsonNode main = Workspace.read(workspace.dir().resolve("main.tf.json"));
        assertThat(main.at("/terraform/backend/http/address").asText())
                .isEqualTo("http://cp/api/state/v1/e/postgres/default/app.db");
        assertThat(main.at("/terraform/backend/http/lock_method").asText()).isEqualTo("LOCK");
        assertThat(main.at("/terraform/backend/http/unlock_method").asText()).isEqualTo("UNLOCK");
        assertThat(main.at("/terraform/backend/http/retry_max").asInt()).isEqualTo(Workspace.STATE_RETRY_MAX);
        assertThat(main.at("/terraform/required_providers/aws/source").asText()).isEqualTo("hashicorp/aws");
        assertThat(main.at("/terraform/required_providers/aws/version").asText())
                .isEqualTo("~> 5.0");
        assertThat(main.at("/provider/aws/0/region").asText()).isEqualTo("eu-west-1");
        assertThat(main.at("/module/main/source").asText()).isEqualTo("./module");
        assertThat(main.at("/module/main/password").asText()).isEqualTo("${var.password}");
        assertThat(main.at("/variable/password/sensitive").asBoolean()).isTrue();
        assertThat(main.at("/variable/name/sensitive").isMissingNode()).isTrue();
        assertThat(main.at("/output/host/value").asText()).isEqualTo("${module.main.host}");
        assertThat(Files.readString(workspace.dir().resolve("module/main.tf"))).isEqualTo("variable \"name\" {}");
        JsonNode values = Workspace.read(workspace.dir().resolve("polystack.auto.tfvars.json"));
        assertThat(values.path("size").asInt()).isEqualTo(2);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(workspace.dir())))
                .isEqualTo("rwx------");
    }

    @Test
    void stateCredentialsStayOutOfFiles() throws Exception {
        ClaimedJob job = job("apply", "{\"output\":{}}");
        Workspace workspace = Workspace.create(root, job);
        assertThat(Files.readString(workspace.dir().resolve("main.tf.json"))).doesNotContain("job-token");
        assertThat(workspace.dir().resolve("module/main.tf.json")).exists();
        AgentConfig config = AgentConfig.load(
                List.of("--url=http://cp", "--org=acme", "--runner=r1", "--plugin-cache-dir=" + root.resolve("cache")),
                Map.of("POLYSTACK_AGENT_TOFU_ENV_AWS_PROFILE", "prod"));
        Map<String, String> env = workspace.environment(job, config);
        assertThat(env)
                .containsEntry("TF_HTTP_PASSWORD", "job-token")
                .containsEntry("TF_IN_AUTOMATION", "1")
                .containsEntry("AWS_PROFILE", "prod")
                .containsEntry("TF_PLUGIN_CACHE_DIR", root.resolve("cache").toString());
        workspace.delete();
        assertThat(workspace.dir()).doesNotExist();
    }

    @Test
    void aDestroyDeclaresNoOutputs() throws Exception {
        Workspace workspace = Workspace.create(root, job("destroy", "variable \"name\" {}"));
        assertThat(Workspace.read(workspace.dir().resolve("main.tf.json")).has("output"))
                .isFalse();
    }
}
