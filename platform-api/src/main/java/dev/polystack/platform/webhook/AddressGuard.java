package dev.polystack.platform.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Refuses webhook addresses inside the control plane's own networks: loopback, link-local (cloud metadata
 * services live there), private (RFC 1918), carrier-grade NAT, unique-local IPv6, multicast and the
 * unspecified address. Checked when a subscription is made and again before each delivery, since a name
 * may resolve elsewhere later.
 */
public final class AddressGuard {

    private AddressGuard() {}

    /** Why the URL may not be called, or empty when it may. */
    public static Optional<String> refusal(URI url, boolean allowPrivateNetworks) {
        String host = url.getHost();
        if (host == null || host.isBlank()) {
            return Optional.of("has no host");
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return Optional.of("host `" + host + "` does not resolve");
        }
        if (allowPrivateNetworks) {
            return Optional.empty();
        }
        for (InetAddress address : addresses) {
            Optional<String> kind = internal(address);
            if (kind.isPresent()) {
                return Optional.of(
                        "host `" + host + "` is " + address.getHostAddress() + ", a " + kind.get()
                                + " address; an instance administrator can allow such addresses (POLYSTACK_WEBHOOKS_ALLOW_PRIVATE_NETWORKS)");
            }
        }
        return Optional.empty();
    }

    static Optional<String> internal(InetAddress address) {
        if (address.isLoopbackAddress()) {
            return Optional.of("loopback");
        }
        if (address.isLinkLocalAddress()) {
            return Optional.of("link-local");
        }
        if (address.isSiteLocalAddress()) {
            return Optional.of("private");
        }
        if (address.isAnyLocalAddress()) {
            return Optional.of("unspecified");
        }
        if (address.isMulticastAddress()) {
            return Optional.of("multicast");
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address && (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64) {
            return Optional.of("carrier-grade NAT");
        }
        if (address instanceof Inet6Address && (bytes[0] & 0xfe) == 0xfc) {
            return Optional.of("unique-local");
        }
        return Optional.empty();
    }
}
