package dev.polystack.platform.webhook;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/** Webhook addresses inside the control plane's networks are refused unless the instance allows them. Plain unit test. */
class AddressGuardTest {

    @Test
    void internalAddressesAreRefusedByDefault() {
        for (String url : new String[] {
            "http://127.0.0.1:8080/hook",
            "http://localhost/hook",
            "http://10.1.2.3/",
            "http://172.16.0.1/",
            "http://192.168.1.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://[::1]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://0.0.0.0/",
            "http://224.0.0.1/"
        }) {
            assertThat(AddressGuard.refusal(URI.create(url), false)).as(url).isPresent();
        }
        assertThat(AddressGuard.refusal(URI.create("http://169.254.169.254/"), false))
                .hasValueSatisfying(
                        why -> assertThat(why).contains("link-local", "POLYSTACK_WEBHOOKS_ALLOW_PRIVATE_NETWORKS"));
    }

    @Test
    void publicAddressesPassAndTheSettingLetsInternalOnesThrough() {
        assertThat(AddressGuard.refusal(URI.create("https://93.184.216.34/hook"), false))
                .isEmpty();
        assertThat(AddressGuard.refusal(URI.create("http://[2606:2800:220:1::]/hook"), false))
                .isEmpty();
        assertThat(AddressGuard.refusal(URI.create("http://127.0.0.1:9/hook"), true))
                .isEmpty();
        assertThat(AddressGuard.refusal(URI.create("http:/no-host"), true)).hasValue("has no host");
    }
}
