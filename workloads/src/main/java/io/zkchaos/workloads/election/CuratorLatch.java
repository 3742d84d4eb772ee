package io.zkchaos.workloads.election;

import io.zkchaos.checkers.state.WorkloadAcls;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.ZnodeAcls;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.AuthInfo;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Candidate sessions running Apache Curator's {@link LeaderLatch}, the recipe most users run, reported through the
 * same {@link LeaderElection.Listener} so the history is the same shape.
 *
 * <p>A process is one CuratorFramework client. Curator would open a new session by itself after a LOST; we retire
 * the process instead (one process = one session). Release reasons come from the last connection state Curator
 * reported before {@code notLeader}: SUSPENDED → {@code disconnected}, LOST → {@code session-expired}; our own
 * close → {@code closed}; anything else (the latch's node was deleted, the latch reset) → {@code node-deleted}.
 * After a release that Curator recovers from by itself (it resets the latch on RECONNECTED), the candidacy goes on
 * and a new {@code acquire} is recorded. The token is the sequence number of the latch's node.
 */
public final class CuratorLatch implements CandidateFactory {

    private static final Logger LOG = LoggerFactory.getLogger(CuratorLatch.class);

    @Override
    public CandidateSession open(String name, String electionPath, Target target, HerdCounters counters)
            throws Exception {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
        if (target.acls() == ZnodeAcls.PER_CLIENT) {
            // Curator authenticates before it connects, so the identity cannot be the session's: the candidate's
            // name (its process number) is as unique in the run.
            String user = WorkloadAcls.CLIENT_PREFIX + name;
            List<ACL> acl = target.acls().forClient(user);
            builder.authorization(target.acls().clientAuth(user).stream()
                    .map(a -> new AuthInfo("digest", a)).toList())
                    .aclProvider(new ACLProvider() {
                        @Override
                        public List<ACL> getDefaultAcl() {
                            return acl;
                        }

                        @Override
                        public List<ACL> getAclForPath(String path) {
                            return acl;
                        }
                    });
        }
        CuratorFramework client = builder
                .connectString(target.connectString())
                .sessionTimeoutMs((int) target.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) target.requestTimeout().toMillis())
                .retryPolicy(new RetryNTimes(1, 100))
                .build();
        client.start();
        if (!client.blockUntilConnected((int) target.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
            client.close();
            throw new java.io.IOException("Curator could not connect to " + target.connectString() + " within "
                    + target.requestTimeout());
        }
        ExecutorService events = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "latch-" + name);
            t.setDaemon(true);
            return t;
        });
        long closeMillis = target.requestTimeout().multipliedBy(2).toMillis();
        return new CandidateSession() {
            // Confined to the events thread.
            LeaderLatch latch;
            LeaderElection.Listener listener;
            Leadership leading;
            ConnectionState lastState = ConnectionState.CONNECTED;
            boolean ended;

            final ConnectionStateListener stateListener = (c, state) -> {
                lastState = state;
                if (state == ConnectionState.LOST && !ended && listener != null) {
                    if (leading != null) {
                        release(ReleaseReason.SESSION_EXPIRED);
                    }
                    ended = true;
                    listener.ended("session-expired");
                }
            };

            {
                client.getConnectionStateListenable().addListener(stateListener, events);
            }

            private void release(ReleaseReason reason) {
                Leadership l = leading;
                leading = null;
                listener.releasing(l, reason);
                listener.released(l, reason);
            }

            @Override
            public void startCandidacy(LeaderElection.Listener l) {
                runOnEvents(() -> {
                    listener = l;
                    leading = null;
                    ended = false;
                    LeaderLatch mine = new LeaderLatch(client, electionPath, name);
                    latch = mine;
                    latch.addListener(new LeaderLatchListener() {
                        @Override
                        public void isLeader() {
                            if (latch != mine || ended || leading != null) {
                                return;
                            }
                            String path = mine.getOurPath();
                            long czxid = -1;
                            try {
                                Stat stat = client.checkExists().forPath(path);
                                czxid = stat == null ? -1 : stat.getCzxid();
                            } catch (Exception e) {
                                LOG.debug("latch {}: no czxid for {}: {}", name, path, e.toString());
                            }
                            leading = new Leadership(LeaderElection.sequenceOf(
                                    path.substring(path.lastIndexOf('/') + 1)), czxid, name, path);
                            listener.acquired(leading);
                        }

                        @Override
                        public void notLeader() {
                            if (latch != mine || ended || leading == null) {
                                return;
                            }
                            release(switch (lastState) {
                                case SUSPENDED -> ReleaseReason.DISCONNECTED;
                                case LOST -> ReleaseReason.SESSION_EXPIRED;
                                default -> ReleaseReason.NODE_DELETED;
                            });
                            listener.volunteering(); // the latch stays a candidate and will lead again
                        }
                    }, events);
                    listener.volunteering();
                    try {
                        mine.start();
                    } catch (Exception e) {
                        LOG.warn("latch {}: start failed: {}", name, e.toString());
                    }
                });
            }

            @Override
            public org.apache.zookeeper.ZooKeeper zooKeeper() throws Exception {
                return client.getZookeeperClient().getZooKeeper();
            }

            @Override
            public void resign() {
                runOnEvents(() -> {
                    if (latch == null) {
                        return;
                    }
                    if (!ended) {
                        if (leading != null) {
                            Leadership l = leading;
                            leading = null;
                            listener.releasing(l, ReleaseReason.CLOSED);
                            closeLatch();
                            listener.released(l, ReleaseReason.CLOSED);
                        } else {
                            closeLatch();
                        }
                        ended = true;
                        listener.ended("closed");
                    } else {
                        closeLatch();
                    }
                    latch = null;
                });
            }

            private void closeLatch() {
                try {
                    latch.close(LeaderLatch.CloseMode.SILENT);
                } catch (Exception e) {
                    LOG.debug("latch {}: close: {}", name, e.toString());
                }
            }

            private void runOnEvents(Runnable r) {
                try {
                    Future<?> f = events.submit(r);
                    f.get(closeMillis, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    LOG.warn("latch {}: {}", name, e.toString());
                }
            }

            @Override
            public void close() {
                resign();
                events.shutdown();
                client.close();
            }
        };
    }
}
