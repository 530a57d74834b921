package dev.polystack.platform.common;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Polystack's own settings; each key is also an environment variable ({@code POLYSTACK_DATA_DIR}, ...). */
@ConfigMapping(prefix = "polystack")
public interface PolystackConfig {

    /** Where the admin token, a generated encryption key and the embedded database live. */
    Path dataDir();

    Db db();

    Bootstrap bootstrap();

    Http http();

    Log log();

    EmbeddedDb embeddedDb();

    Encryption encryption();

    Cors cors();

    Auth auth();

    Oidc oidc();

    interface Oidc {
        /** Set by POLYSTACK_OIDC_ISSUER being present. */
        @WithDefault("false")
        boolean enabled();

        /** The issuer URL, e.g. https://keycloak.example.com/realms/polystack. */
        Optional<String> issuer();

        /** The client the API validates tokens for. */
        @WithDefault("polystack")
        String clientId();

        /** The public client the console signs in with (authorization code + PKCE). */
        @WithDefault("polystack-console")
        String consoleClientId();

        /** The public client the CLI signs in with (OAuth 2.0 device authorization grant). */
        @WithDefault("polystack-cli")
        String cliClientId();

        /** The token claim that lists the user's groups. */
        @WithDefault("groups")
        String groupsClaim();
    }

    interface Cors {
        /** Allow browser calls from other origins. */
        @WithDefault("false")
        boolean enabled();

        /** Comma-separated origins allowed when enabled. */
        @WithDefault("http://localhost:5173")
        String origins();
    }

    interface Auth {
        /** Authentication failures a client may have per minute before it is refused for a minute. */
        @WithDefault("30")
        int maxFailures();
    }

    interface Db {
        /** JDBC URL of an external PostgreSQL; unset means the embedded one. */
        Optional<String> url();

        @WithDefault("polystack")
        String user();

        Optional<String> password();

        @WithDefault("20")
        int poolSize();
    }

    interface Bootstrap {
        /** A preset instance-administrator token (pst_...), e.g. from a Kubernetes Secret. */
        Optional<String> adminToken();

        /** Print the generated administrator token once on the console. */
        @WithDefault("true")
        boolean printAdminToken();
    }

    interface Http {
        @WithDefault("8080")
        int port();

        @WithDefault("0.0.0.0")
        String host();

        /** The largest API request body, counted on the bytes read. */
        @WithDefault("1M")
        MemorySize maxBodySize();

        /**
         * How many environments' resource graphs are built at once; more wait their turn up to 10 s, then
         * get 503. A graph of thousands of resources takes tens of MiB while it is built.
         */
        @WithDefault("4")
        int concurrentGraphReads();

        /**
         * How many bytes of written-out resource graphs are kept, by their ETag, for the next full read of an
         * unchanged graph; {@code 0} keeps none. Entries unread for five minutes are dropped.
         */
        @WithDefault("32M")
        MemorySize graphCacheSize();
    }

    State state();

    Quotas quotas();

    Memory memory();

    /** How the control plane gives memory back after heavy work ({@code POLYSTACK_MEMORY_IDLE_GC_INTERVAL}). */
    interface Memory {
        /**
         * When no collection ran for this long and more than 64 MiB of heap is committed but unused, one full
         * collection returns it (after which the heap keeps at most 30 % free); {@code 0} leaves the JVM's own
         * behaviour. Heap free ratios given on the command line win.
         */
        @WithDefault("20s")
        Duration idleGcInterval();
    }

    /** The quotas of an organization whose administrator set none ({@code POLYSTACK_QUOTAS_PROJECTS}, ...). */
    interface Quotas {
        @WithDefault("100")
        int projects();

        @WithDefault("50")
        int environmentsPerProject();

        /** At most {@code polystack.manifest.max-resources}, which bounds every manifest of the instance. */
        @WithDefault("1000")
        int resourcesPerManifest();

        @WithDefault("10")
        int queuedDeploymentsPerEnvironment();

        @WithDefault("50")
        int concurrentJobs();

        @WithDefault("50")
        int runners();

        @WithDefault("50")
        int tokensPerUser();
    }

    interface State {
        /** The largest OpenTofu state a runner may upload to the state backend. */
        @WithDefault("32M")
        MemorySize maxBodySize();
    }

    interface Log {
        @WithDefault("false")
        boolean json();

        @WithDefault("INFO")
        String level();
    }

    interface Encryption {
        /** The current key, base64 of 32 random bytes; unset means a key generated into the data directory. */
        Optional<String> key();

        /** Keys in use before rotations, oldest first, so that old values still open. */
        Optional<List<String>> previousKeys();

        /** Id of the current key (1-255); bump it at every rotation. */
        @WithDefault("1")
        int keyId();
    }

    interface EmbeddedDb {
        /** Where the embedded cluster lives when the data directory does not suit it. */
        Optional<Path> dir();
    }
}
