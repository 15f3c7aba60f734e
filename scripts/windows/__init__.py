"""The Windows builds' checks under Wine (.ci/windows.sh): the exe against the Linux build
(`exe_check`) and games judged by the Linux engine (`check_games`), beside the C hosts and
shell scripts of this folder."""
