"""From text to token ids: Hugging Face tokenizers read with ``tokenizers``, a small BPE trainer, one-hot ``t``."""
from .bpe import merges, save_tokenizer, train_bpe
from .tokenizer import Token, Tokens, encode, load_tokenizer, one_hot

__all__ = ["Token", "Tokens", "encode", "load_tokenizer", "merges", "one_hot", "save_tokenizer", "train_bpe"]
