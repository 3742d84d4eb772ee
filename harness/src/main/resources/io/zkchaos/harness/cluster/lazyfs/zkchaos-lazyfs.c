/*
 * zkchaos-lazyfs: a FUSE file system that holds every write in memory until the file is fsynced, so that a
 * crash can lose what was written but not fsynced (the idea of Jepsen's LazyFS). Built by zk-chaos with
 *   gcc -O2 -Wall -o zkchaos-lazyfs zkchaos-lazyfs.c $(pkg-config --cflags --libs fuse3)
 *
 * Usage: zkchaos-lazyfs <backing-dir> <mount-point> [marker ...]
 *   Mounts <backing-dir> at <mount-point> and serves it in the foreground, single-threaded, until it is
 *   unmounted or gets SIGTERM / SIGINT (then it unmounts). Markers (e.g. -Dzkchaos.run=...) are ignored: they
 *   identify the process to the harness's reaper.
 *
 * Semantics:
 *   - File data written through the mount stays in this process's memory (4 KiB pages, per inode of the backing
 *     file) until fsync or fdatasync of that file writes the file's pages and its size to the backing file and
 *     fsyncs it. Reads see the written data (read-your-writes), as a page cache would.
 *   - Metadata operations (create, mkdir, unlink, rename, chmod, link, symlink) go to the backing directory at
 *     once and are kept: as if every directory were always synced. Only file contents and sizes are lazy.
 *   - The control file "/.zkchaos-lazyfs" at the root of the mount (hidden from listings) takes commands, one per
 *     write: "lose" drops every un-fsynced page and size change of every file (what a power failure does to the
 *     page cache), "sync" writes every file as fsync would; reading it gives counters as "key value" lines.
 */
#define FUSE_USE_VERSION 31

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define PAGE 4096
#define PBUF (2 * PATH_MAX + 64) /* a backing path: the backing directory and a path below the mount */
#define BUCKETS 256
#define CONTROL "/.zkchaos-lazyfs"
#define CONTROL_FH ((uint64_t) -1)

struct page {
    uint64_t index;
    struct page *next;
    unsigned char data[PAGE];
};

/* The lazy state of one backing inode: its dirty pages and its size as the writers see it. */
struct lfile {
    ino_t ino;
    dev_t dev;
    int fd;               /* the backing file, read-write, owned by this struct */
    int refs;             /* open handles */
    int unlinked;         /* no longer reachable by inode number */
    off_t size;           /* logical size, valid when size_dirty */
    int size_dirty;
    size_t pages;
    struct page *bucket[BUCKETS];
    struct lfile *next;
};

static char backing[PATH_MAX];
static struct lfile *files;
static unsigned long long st_writes, st_fsyncs, st_losses, st_lost_pages, st_lost_sizes, st_synced_pages;
static char control_out[1024];

static void full(char *out, const char *path) {
    snprintf(out, PBUF, "%s%s", backing, path ? path : "/.zkchaos-lazyfs-unlinked");
}

static struct lfile *find(dev_t dev, ino_t ino) {
    for (struct lfile *f = files; f; f = f->next) {
        if (!f->unlinked && f->ino == ino && f->dev == dev) {
            return f;
        }
    }
    return NULL;
}

static struct page *page_of(struct lfile *f, uint64_t index) {
    for (struct page *p = f->bucket[index % BUCKETS]; p; p = p->next) {
        if (p->index == index) {
            return p;
        }
    }
    return NULL;
}

static off_t backing_size(struct lfile *f) {
    struct stat st;
    return fstat(f->fd, &st) == 0 ? st.st_size : 0;
}

static off_t logical_size(struct lfile *f) {
    return f->size_dirty ? f->size : backing_size(f);
}

static void drop_pages(struct lfile *f) {
    for (int b = 0; b < BUCKETS; b++) {
        struct page *p = f->bucket[b];
        while (p) {
            struct page *n = p->next;
            free(p);
            p = n;
        }
        f->bucket[b] = NULL;
    }
    f->pages = 0;
}

static void release_file(struct lfile *f) {
    if (f->refs > 0 || (!f->unlinked && (f->pages > 0 || f->size_dirty))) {
        return;
    }
    for (struct lfile **pp = &files; *pp; pp = &(*pp)->next) {
        if (*pp == f) {
            *pp = f->next;
            break;
        }
    }
    drop_pages(f);
    close(f->fd);
    free(f);
}

/* The page at index, loaded from the backing file (zeros past its end) when it is not dirty yet. */
static struct page *dirty_page(struct lfile *f, uint64_t index) {
    struct page *p = page_of(f, index);
    if (p) {
        return p;
    }
    p = calloc(1, sizeof *p);
    if (!p) {
        return NULL;
    }
    p->index = index;
    off_t from = (off_t) index * PAGE;
    off_t limit = logical_size(f);
    ssize_t want = from >= limit ? 0 : (limit - from < PAGE ? limit - from : PAGE);
    ssize_t got = 0;
    while (got < want) {
        ssize_t n = pread(f->fd, p->data + got, want - got, from + got);
        if (n <= 0) {
            break;
        }
        got += n;
    }
    p->next = f->bucket[index % BUCKETS];
    f->bucket[index % BUCKETS] = p;
    f->pages++;
    return p;
}

/* Writes the file's pages and size to the backing file and fsyncs it. */
static int flush_file(struct lfile *f) {
    off_t size = logical_size(f);
    for (int b = 0; b < BUCKETS; b++) {
        for (struct page *p = f->bucket[b]; p; p = p->next) {
            off_t from = (off_t) p->index * PAGE;
            if (from >= size) {
                continue;
            }
            size_t len = size - from < PAGE ? (size_t) (size - from) : PAGE;
            size_t done = 0;
            while (done < len) {
                ssize_t n = pwrite(f->fd, p->data + done, len - done, from + done);
                if (n < 0) {
                    return -errno;
                }
                done += n;
            }
            st_synced_pages++;
        }
    }
    if (backing_size(f) != size && ftruncate(f->fd, size) < 0) {
        return -errno;
    }
    if (fsync(f->fd) < 0) {
        return -errno;
    }
    drop_pages(f);
    f->size_dirty = 0;
    return 0;
}

static void lose_all(void) {
    st_losses++;
    for (struct lfile *f = files; f;) {
        struct lfile *n = f->next;
        st_lost_pages += f->pages;
        st_lost_sizes += f->size_dirty ? 1 : 0;
        drop_pages(f);
        f->size_dirty = 0;
        release_file(f);
        f = n;
    }
}

static int sync_all(void) {
    int rc = 0;
    for (struct lfile *f = files; f;) {
        struct lfile *n = f->next;
        int r = flush_file(f);
        if (r < 0) {
            rc = r;
        }
        release_file(f);
        f = n;
    }
    return rc;
}

static size_t dirty_bytes(void) {
    size_t total = 0;
    for (struct lfile *f = files; f; f = f->next) {
        total += f->pages * PAGE;
    }
    return total;
}

static void render_control(void) {
    size_t open = 0;
    for (struct lfile *f = files; f; f = f->next) {
        open++;
    }
    snprintf(control_out, sizeof control_out,
             "writes %llu\nfsyncs %llu\nsynced_pages %llu\nlosses %llu\nlost_pages %llu\nlost_sizes %llu\n"
             "dirty_bytes %zu\ntracked_files %zu\n",
             st_writes, st_fsyncs, st_synced_pages, st_losses, st_lost_pages, st_lost_sizes, dirty_bytes(), open);
}

/* ---- FUSE operations ---- */

static void *lz_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void) conn;
    cfg->use_ino = 1;
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->direct_io = 1; /* no kernel page cache: every read and write reaches this process */
    cfg->kernel_cache = 0;
    cfg->hard_remove = 1; /* an unlinked open file is not renamed to .fuse_hidden* in the server's directory */
    return NULL;
}

static int lz_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    if (path == NULL) {
        /* an open file that was unlinked (hard_remove): only its handle names it */
        if (!fi || fi->fh == CONTROL_FH) {
            return -ENOENT;
        }
        struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
        if (fstat(f->fd, st) < 0) {
            return -errno;
        }
        if (f->size_dirty) {
            st->st_size = f->size;
        }
        return 0;
    }
    if (strcmp(path, CONTROL) == 0) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFREG | 0600;
        st->st_nlink = 1;
        render_control();
        st->st_size = (off_t) strlen(control_out);
        return 0;
    }
    char p[PBUF];
    full(p, path);
    if (lstat(p, st) < 0) {
        return -errno;
    }
    struct lfile *f = S_ISREG(st->st_mode) ? find(st->st_dev, st->st_ino) : NULL;
    if (f && f->size_dirty) {
        st->st_size = f->size;
        st->st_blocks = (f->size + 511) / 512;
    }
    return 0;
}

static int lz_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void) off;
    (void) fi;
    (void) flags;
    char p[PBUF];
    full(p, path);
    DIR *d = opendir(p);
    if (!d) {
        return -errno;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        memset(&st, 0, sizeof st);
        st.st_ino = e->d_ino;
        st.st_mode = (mode_t) e->d_type << 12;
        if (filler(buf, e->d_name, &st, 0, 0)) {
            break;
        }
    }
    closedir(d);
    return 0;
}

static int attach(const char *p, int flags, struct fuse_file_info *fi) {
    int fd = open(p, (flags & ~(O_ACCMODE | O_TRUNC | O_APPEND | O_CREAT | O_EXCL)) | O_RDWR);
    if (fd < 0 && errno == EACCES) {
        fd = open(p, flags & ~(O_TRUNC | O_CREAT | O_EXCL));
    }
    if (fd < 0) {
        return -errno;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    struct lfile *f = find(st.st_dev, st.st_ino);
    if (f) {
        close(fd);
    } else {
        f = calloc(1, sizeof *f);
        if (!f) {
            close(fd);
            return -ENOMEM;
        }
        f->ino = st.st_ino;
        f->dev = st.st_dev;
        f->fd = fd;
        f->next = files;
        files = f;
    }
    f->refs++;
    if (flags & O_TRUNC) {
        drop_pages(f);
        f->size = 0;
        f->size_dirty = 1;
    }
    fi->fh = (uint64_t) (uintptr_t) f;
    fi->direct_io = 1;
    return 0;
}

static int lz_open(const char *path, struct fuse_file_info *fi) {
    if (strcmp(path, CONTROL) == 0) {
        fi->fh = CONTROL_FH;
        fi->direct_io = 1;
        return 0;
    }
    char p[PBUF];
    full(p, path);
    return attach(p, fi->flags, fi);
}

static int lz_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    if (strcmp(path, CONTROL) == 0) {
        return -EEXIST;
    }
    char p[PBUF];
    full(p, path);
    int fd = open(p, O_CREAT | O_WRONLY | (fi->flags & O_EXCL), mode);
    if (fd < 0) {
        return -errno;
    }
    close(fd);
    return attach(p, fi->flags, fi);
}

static int lz_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) path;
    if (fi->fh == CONTROL_FH) {
        render_control();
        size_t len = strlen(control_out);
        if ((size_t) off >= len) {
            return 0;
        }
        size_t n = len - off < size ? len - off : size;
        memcpy(buf, control_out + off, n);
        return (int) n;
    }
    struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
    off_t limit = logical_size(f);
    if (off >= limit) {
        return 0;
    }
    if ((off_t) size > limit - off) {
        size = limit - off;
    }
    size_t done = 0;
    while (done < size) {
        off_t at = off + done;
        uint64_t index = at / PAGE;
        size_t in_page = at % PAGE;
        size_t n = PAGE - in_page < size - done ? PAGE - in_page : size - done;
        struct page *p = page_of(f, index);
        if (p) {
            memcpy(buf + done, p->data + in_page, n);
        } else {
            ssize_t got = pread(f->fd, buf + done, n, at);
            if (got < 0) {
                return -errno;
            }
            if ((size_t) got < n) {
                memset(buf + done + got, 0, n - got); /* past the backing end, inside the logical size */
            }
        }
        done += n;
    }
    return (int) size;
}

static int lz_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void) path;
    if (fi->fh == CONTROL_FH) {
        if (size >= 4 && strncmp(buf, "lose", 4) == 0) {
            lose_all();
            return (int) size;
        }
        if (size >= 4 && strncmp(buf, "sync", 4) == 0) {
            int rc = sync_all();
            return rc < 0 ? rc : (int) size;
        }
        return -EINVAL;
    }
    struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
    if (fi->flags & O_APPEND) {
        off = logical_size(f);
    }
    off_t size_before = logical_size(f);
    size_t done = 0;
    while (done < size) {
        off_t at = off + done;
        uint64_t index = at / PAGE;
        size_t in_page = at % PAGE;
        size_t n = PAGE - in_page < size - done ? PAGE - in_page : size - done;
        struct page *p = dirty_page(f, index);
        if (!p) {
            return -ENOMEM;
        }
        memcpy(p->data + in_page, buf + done, n);
        done += n;
    }
    off_t end = off + (off_t) size;
    f->size = end > size_before ? end : size_before;
    f->size_dirty = 1;
    st_writes++;
    return (int) size;
}

static int lz_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    struct lfile *f = NULL;
    int attached = 0;
    struct fuse_file_info tmp;
    if (fi && fi->fh != CONTROL_FH) {
        f = (struct lfile *) (uintptr_t) fi->fh;
    } else {
        if (strcmp(path, CONTROL) == 0) {
            return 0;
        }
        char p[PBUF];
        full(p, path);
        memset(&tmp, 0, sizeof tmp);
        int rc = attach(p, O_RDWR, &tmp);
        if (rc < 0) {
            return rc;
        }
        f = (struct lfile *) (uintptr_t) tmp.fh;
        attached = 1;
    }
    /* drop whole pages past the new end, zero the tail of the last one */
    for (int b = 0; b < BUCKETS; b++) {
        struct page **pp = &f->bucket[b];
        while (*pp) {
            struct page *p = *pp;
            off_t from = (off_t) p->index * PAGE;
            if (from >= size) {
                *pp = p->next;
                free(p);
                f->pages--;
            } else {
                if (from + PAGE > size) {
                    memset(p->data + (size - from), 0, PAGE - (size - from));
                }
                pp = &p->next;
            }
        }
    }
    if (size < logical_size(f) && size % PAGE != 0 && !page_of(f, size / PAGE)) {
        /* the backing file still holds bytes past the new end in that page: make them zeros in the cache */
        struct page *p = dirty_page(f, size / PAGE);
        if (p) {
            memset(p->data + size % PAGE, 0, PAGE - size % PAGE);
        }
    }
    f->size = size;
    f->size_dirty = 1;
    if (attached) {
        f->refs--;
        release_file(f);
    }
    return 0;
}

static int lz_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void) path;
    (void) datasync;
    if (fi->fh == CONTROL_FH) {
        return 0;
    }
    st_fsyncs++;
    return flush_file((struct lfile *) (uintptr_t) fi->fh);
}

static int lz_flush(const char *path, struct fuse_file_info *fi) {
    (void) path;
    (void) fi;
    return 0; /* close() persists nothing, as on a real file system */
}

static int lz_release(const char *path, struct fuse_file_info *fi) {
    (void) path;
    if (fi->fh == CONTROL_FH) {
        return 0;
    }
    struct lfile *f = (struct lfile *) (uintptr_t) fi->fh;
    f->refs--;
    release_file(f);
    return 0;
}

static void forget_path(const char *p) {
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink <= 1) {
        struct lfile *f = find(st.st_dev, st.st_ino);
        if (f) {
            f->unlinked = 1;
            release_file(f);
        }
    }
}

static int lz_unlink(const char *path) {
    char p[PBUF];
    full(p, path);
    forget_path(p);
    return unlink(p) < 0 ? -errno : 0;
}

static int lz_rename(const char *from, const char *to, unsigned int flags) {
    if (flags) {
        return -EINVAL;
    }
    char a[PBUF], b[PBUF];
    full(a, from);
    full(b, to);
    forget_path(b);
    return rename(a, b) < 0 ? -errno : 0;
}

static int lz_mkdir(const char *path, mode_t mode) {
    char p[PBUF];
    full(p, path);
    return mkdir(p, mode) < 0 ? -errno : 0;
}

static int lz_rmdir(const char *path) {
    char p[PBUF];
    full(p, path);
    return rmdir(p) < 0 ? -errno : 0;
}

static int lz_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void) fi;
    char p[PBUF];
    full(p, path);
    return chmod(p, mode) < 0 ? -errno : 0;
}

static int lz_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    (void) fi;
    char p[PBUF];
    full(p, path);
    return lchown(p, uid, gid) < 0 ? -errno : 0;
}

static int lz_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    (void) fi;
    char p[PBUF];
    full(p, path);
    return utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

static int lz_link(const char *from, const char *to) {
    char a[PBUF], b[PBUF];
    full(a, from);
    full(b, to);
    return link(a, b) < 0 ? -errno : 0;
}

static int lz_symlink(const char *target, const char *path) {
    char p[PBUF];
    full(p, path);
    return symlink(target, p) < 0 ? -errno : 0;
}

static int lz_readlink(const char *path, char *buf, size_t size) {
    char p[PBUF];
    full(p, path);
    ssize_t n = readlink(p, buf, size - 1);
    if (n < 0) {
        return -errno;
    }
    buf[n] = '\0';
    return 0;
}

static int lz_statfs(const char *path, struct statvfs *st) {
    (void) path;
    return statvfs(backing, st) < 0 ? -errno : 0;
}

static int lz_access(const char *path, int mask) {
    if (strcmp(path, CONTROL) == 0) {
        return 0;
    }
    char p[PBUF];
    full(p, path);
    return access(p, mask) < 0 ? -errno : 0;
}

static const struct fuse_operations ops = {
    .init = lz_init,
    .getattr = lz_getattr,
    .readdir = lz_readdir,
    .open = lz_open,
    .create = lz_create,
    .read = lz_read,
    .write = lz_write,
    .truncate = lz_truncate,
    .fsync = lz_fsync,
    .flush = lz_flush,
    .release = lz_release,
    .unlink = lz_unlink,
    .rename = lz_rename,
    .mkdir = lz_mkdir,
    .rmdir = lz_rmdir,
    .chmod = lz_chmod,
    .chown = lz_chown,
    .utimens = lz_utimens,
    .link = lz_link,
    .symlink = lz_symlink,
    .readlink = lz_readlink,
    .statfs = lz_statfs,
    .access = lz_access,
};

int main(int argc, char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s <backing-dir> <mount-point> [marker ...]\n", argv[0]);
        return 2;
    }
    if (!realpath(argv[1], backing)) {
        perror(argv[1]);
        return 2;
    }
    char *fuse_argv[] = {argv[0], "-f", "-s", "-o",
                         "fsname=zkchaos-lazyfs,subtype=zkchaos-lazyfs,default_permissions", argv[2], NULL};
    return fuse_main(6, fuse_argv, &ops, NULL);
}
