package io.zkchaos.nemesis;

/**
 * A node's disk replaced: what a {@link NodeControl} implements when its system reaches a stopped server's data
 * directory (the local and ssh backends). A system that does not implement it cannot, and {@code replace-disk} says
 * so as "could not act".
 */
public interface DataReplacement {

    /**
     * SIGKILLs a node (if it runs) and empties its data directory, keeping only what names it in the ensemble
     * (ZooKeeper's {@code myid}): its host re-imaged, as an operator replaces a failed disk. The node stays down;
     * {@link NodeControl#start} brings it back on the empty directory, to sync the whole data tree from a leader.
     *
     * @throws UnsupportedOperationException when this system cannot for this node now (the fle nodes)
     */
    void replaceDisk(String node);
}
