#!/usr/bin/env python3
"""Per-fold train-CV oracle macro-F1 of the bi-encoder LR stance model (the baseline for
experiments/fit-stance-cross.py, same claim-id folds), re-fitted in torch from the feature dump of
  npx tsx ml/stance-fit.ts --dataset ../shared/datasets/scifact --dump /tmp/s8e/feat.jsonl
Cue features only, class weights, L2 0.01, 300 full-batch Adam steps, as stance-fit.ts chooses."""
import json, sys, torch
torch.set_num_threads(1)
R=[json.loads(l) for l in open(sys.argv[1])]
d=len(R[0]['x'])-2*384
X=torch.tensor([r['x'][:d] for r in R],dtype=torch.float64); y=torch.tensor([r['y'] for r in R])
def mf1(g,p):
    f=[]
    for c in range(3):
        tp=sum(1 for a,b in zip(g,p) if a==c and b==c); P=sum(1 for b in p if b==c); G=sum(1 for a in g if a==c)
        f.append(0 if tp==0 else 2*tp/(P+G))
    return sum(f)/3
res=[]
for f in range(5):
    tr=[i for i,r in enumerate(R) if int(r['c'])%5!=f]; te=[i for i,r in enumerate(R) if int(r['c'])%5==f and r['i']>=0]
    Xt=X[tr]; m=Xt.mean(0); s=Xt.std(0,unbiased=False).clamp(min=1e-3)
    Z=(Xt-m)/s; yt=y[tr]
    cnt=torch.bincount(yt,minlength=3).double(); cw=len(yt)/(3*cnt)
    W=torch.zeros(d,3,dtype=torch.float64,requires_grad=True); b=torch.zeros(3,dtype=torch.float64,requires_grad=True)
    opt=torch.optim.Adam([W,b],lr=0.01)
    for e in range(300):
        loss=torch.nn.functional.cross_entropy(Z@W+b,yt,weight=cw,reduction='none')
        loss=(loss*1).sum()/len(yt)  # weighted mean as in stance-train (weights inside, /N)
        loss=loss+0.5*0.01*(W**2).sum()
        opt.zero_grad(); loss.backward(); opt.step()
    lp=torch.log_softmax(((X[te]-m)/s)@W+b,-1).detach()
    inst={}
    for k,i in enumerate(te): inst.setdefault(R[i]['i'],[torch.zeros(3),R[i]['y']]); inst[R[i]['i']][0]+=lp[k].float()
    g=[v[1] for v in inst.values()]; p=[int(v[0].argmax()) for v in inst.values()]
    res.append(mf1(g,p)); print('fold',f,len(inst),round(res[-1],4))
print('mean',round(sum(res)/5,4))
