"""The word lists behind :mod:`paperdeck.text.titles`' display titles for abstract-only papers.

Vocabulary, not rules: acronyms that name a field or tool (never a paper's own method), words
a title must not end on, headings of structured abstracts, the small words acronyms skip, and
the LaTeX symbol macros kept as characters when markup is stripped. Abstracts are plain text
with LaTeX and Markdown; these lists are matched against it.
"""

from __future__ import annotations

__all__ = [
    "ACRONYM_SKIPS",
    "BACKGROUND",
    "BACKGROUND_OPENERS",
    "HEADINGS",
    "STATE_OF_THE_FIELD",
    "STOP_END",
    "SYMBOLS",
]

#: Acronyms of fields and tools that abstracts define in passing; never a paper's own name.
BACKGROUND = frozenset(
    "ADE AGI AI API AR ASR AUC BC BERT BEV BO CCA CF CFG CL CLIP CNN COT CRF CRUD CT CTR CV DA "  # noqa: SIM905
    "DDPM DETR DFL DG DIT DL DLN DM DNN DP DPO DRL DRO EBM EEG ELBO EM FID FL FMRI FPS FNO FSL GAD "
    "GAN GAT GCN GD GDP GNN GP GPT GRPO GRU HAR HCI HMC HMM HPO HTR ICL IL INN IR IRL IRM IS IT "
    "KD KG KL KV LDM LLM LM LMM LORA LRM LSTM LVLM MAE MARL MBRL MCMC MCP MCTS MDP MIL ML MLLM "
    "MLP MOE MOT MPC MPNN MRI MSE MT NA NAR NAS NER NERF NFE NLI NLP NMT NN NTK NVS OCR ODE OOD "
    "OPE OR ORM OT PCA PDE PEFT PINN PLM POMDP PPO PRM PTQ QA QAT RAG RD RDP RKHS RL RLHF RLVR "
    "RM RMSE RNN SAE SAM SCM SD SDE SDF SFT SGD SL SLAM SLM SMC SMOE SNN SOTA SPD SPDM "
    "SR SSIM SSL SVD SVM T2I TS TTA TTS UDA VAE VI VIT VLA VLM VOS VQA VRP VSR WSI XAI ZSL".split()
)
#: Words a label must not end on.
STOP_END = frozenset(
    "a an and are as at between but by comprising for from in including into is its of on or our "  # noqa: SIM905
    "over such that the their through to under using via we when where which while with".split()
)
#: Bold words that head parts of structured abstracts, not names.
HEADINGS = frozenset(
    "Abstract Aim Aims Approach Background Conclusion Conclusions Context Contributions "  # noqa: SIM905
    "Findings Method Methods Motivation Objective Objectives Overview Problem Purpose Results "
    "Significance".split()
)
#: First words of sentences that set the scene rather than say what the paper does.
BACKGROUND_OPENERS = frozenset(
    "when while whereas although though despite since as with recent recently nowadays currently "  # noqa: SIM905
    "today traditionally existing conventional current modern most many however but yet "
    "unfortunately moreover furthermore additionally typically generally often".split()
)
#: What scene-setting sentences say of a field: "… have achieved great success", "… is a
#: fundamental problem", "… constitute …", "… plays a crucial role".
STATE_OF_THE_FIELD = (
    r"(?:have|has)\s+(?:recently\s+|rapidly\s+|also\s+)?(?:achieved|shown|demonstrated|emerged|"
    r"become|gained|revolutionized|revolutionised|attracted|made|seen|enabled|garnered|"
    r"transformed|drawn|witnessed|advanced|exhibited|been\s+(?:widely|increasingly|extensively))|"
    r"(?:is|are|remains?|has been|have been)\s+(?:a|an|the)?\s*(?:\w+ly\s+)?(?:fundamental|"
    r"powerful|popular|central|key|promising|important|critical|crucial|essential|common|"
    r"standard|long-standing|challenging|major|significant|prevalent|ubiquitous|cornerstone|"
    r"widely|increasingly|open|difficult|emerging|growing)|"
    r"constitutes?|underpins?|plays?\s+(?:an?\s+)?(?:\w+\s+)?role|"
    r"(?:rely|relies|depend|depends)\s+on|struggles?\s+(?:with|to)|suffers?\s+from|"
    r"(?:is|are)\s+(?:often|typically|usually|commonly|widely)"
)
#: Words that acronyms skip: "Learning *to* Rank (LTR)".
ACRONYM_SKIPS = frozenset("a an and by for from in of on the to via with".split())  # noqa: SIM905
#: LaTeX symbol macros kept, as characters, when markup is stripped.
SYMBOLS = {
    "alpha": "\u03b1", "beta": "\u03b2", "gamma": "\u03b3", "delta": "\u03b4", "epsilon": "\u03b5",
    "lambda": "\u03bb", "mu": "\u03bc", "pi": "\u03c0", "sigma": "\u03c3", "tau": "\u03c4",
    "phi": "\u03c6", "theta": "\u03b8", "ell": "\u2113", "to": "\u2192", "in": "\u2208",
    "le": "\u2264", "leq": "\u2264", "ge": "\u2265", "geq": "\u2265", "times": "\u00d7",
}  # fmt: skip
