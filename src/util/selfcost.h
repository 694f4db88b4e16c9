/* pmctop's own cost: its CPU time and share, resident memory and descriptors. */
#ifndef PMCTOP_SELFCOST_H
#define PMCTOP_SELFCOST_H

/* NAN where the system did not say. */
struct selfcost {
	double cpu_seconds; /* user and system time since start */
	double cpu_pct;	    /* of one CPU, over the interval since the previous read */
	double rss_bytes;   /* resident set */
	double open_fds;    /* descriptors open now */
	double max_fds;	    /* the soft RLIMIT_NOFILE; INFINITY when unlimited */
};

/*
 * Read the cost now into s. cpu_pct is the CPU time since prev over dt_s
 * seconds of wall time, NAN without prev or a positive dt_s.
 */
void selfcost_read(struct selfcost *s, const struct selfcost *prev, double dt_s);

#endif
