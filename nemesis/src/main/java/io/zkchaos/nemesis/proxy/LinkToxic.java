package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Toxic;

/**
 * A toxic as set on a link, with the serial of its addition: serials grow with every addition to the link, so a
 * connection can tell which toxics it has already drawn against (a removed and re-added toxic of the same name is
 * a new one) and apply new ones in the link's order.
 */
record LinkToxic(Toxic toxic, long serial) {
}
