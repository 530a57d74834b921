package dev.polystack.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentConfigTest {

    @TempDir
    Path dir;

    @Test
    void argumentsBeatTheEnvironmentWhichBeatsTheFile() throws Exception {
        Path file = dir.resolve("agent.properties");
        Files.writeString(
                file,
                "url=http://from-file\norg=acme\nrunner=file-runner\nmax-jobs=2\ntofu-env.HTTPS_PROXY=http://proxy\n");
        AgentConfig config = AgentConfig.load(
                List.of("--config", file.toString(), "--runner=arg-runner"),
                Map.of("POLYSTACK_AGENT_URL", "https://from-env:8443/", "POLYSTACK_AGENT_CANCEL_GRACE", "5s"));
        assertThat(config.url().toString()).isEqualTo("https://from-env:8443");
        assertThat(config.runner()).isEqualTo("arg-runner");
        assertThat(config.maxJobs()).isEqualTo(2);
        assertThat(config.cancelGrace()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.tofu())
                .as("unset: tofu, else terraform, is looked for at start")
                .isNull();
        assertThat(config.tofuEnvironment()).containsEntry("HTTPS_PROXY", "http://proxy");
    }

    @Test
    void missingAndWrongSettingsSayWhatToDo() {
        assertThatThrownBy(() -> AgentConfig.load(List.of("--org=a", "--runner=b"), Map.of()))
                .hasMessageContaining("`url` is not set")
                .hasMessageContaining("POLYSTACK_AGENT_URL");
        assertThatThrownBy(() -> AgentConfig.load(List.of("--url=ftp://x", "--org=a", "--runner=b"), Map.of()))
                .hasMessageContaining("must be an http(s) URL");
        assertThatThrownBy(() ->
                        AgentConfig.load(List.of("--url=http://x", "--org=a", "--runner=b", "--max-jobs=0"), Map.of()))
                .hasMessageContaining("`max-jobs` must be a positive number");
        assertThatThrownBy(() ->
                        AgentConfig.load(List.of("--url=http://x", "--org=a", "--runner=b", "--colour=red"), Map.of()))
                .hasMessageContaining("unknown setting `colour`");
    }

    @Test
    void keygenWritesAKeyTheAgentReadsBack() throws Exception {
        Path key = dir.resolve("keys/runner.key");
        String publicPem = Keys.generate(key);
        assertThat(publicPem).startsWith("-----BEGIN PUBLIC KEY-----");
        assertThat(Keys.load(key).getAlgorithm()).isIn("EdDSA", "Ed25519");
        assertThatThrownBy(() -> Keys.generate(key)).hasMessageContaining("exists already");
        assertThatThrownBy(() -> Keys.load(dir.resolve("none"))).hasMessageContaining("keygen");
    }
}
